"""Task-specific grader and derive functions, composed from physbench_gym.grading primitives.

Loaded as the package ``physbench_graders`` from wherever this folder is installed.
"""
