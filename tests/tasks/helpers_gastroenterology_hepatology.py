"""Note grading by checkpoint id for gastroenterology and hepatology tasks."""

from tests.tasks.helpers_cardiology import grade_note_checks

__all__ = ["grade_note_checks"]
