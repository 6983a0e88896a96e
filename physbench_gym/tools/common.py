"""Tools every tool set has: ``write_file`` for deliverables and ``finish`` to end the episode."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from physbench_gym.tools.base import ToolContext, ToolOutput, tool
from physbench_gym.tools.fields import ToolArgs
from physbench_gym.tools.workspace import MAX_FILE_BYTES, MAX_PATH_CHARS, Workspace


class WriteFileArgs(ToolArgs):
    """A file to write in the output workspace."""

    file_path: Annotated[str, Field(min_length=1, max_length=MAX_PATH_CHARS)] = Field(
        description=f"Where to write, below {Workspace.ROOT}, e.g. "
                    f"'{Workspace.ROOT}consult_note.md'.")
    content: Annotated[str, Field(max_length=MAX_FILE_BYTES)] = Field(
        description="The text to write (UTF-8).")
    mode: Literal["overwrite", "append"] = Field("overwrite", description=(
        "'overwrite' (default) replaces the file; 'append' adds to its end."))


class FinishArgs(ToolArgs):
    """The end of the episode."""

    summary: Annotated[str, Field(max_length=20_000)] = Field("", description=(
        "A short summary of what you found and did."))


@tool(WriteFileArgs)
def write_file(args: WriteFileArgs, ctx: ToolContext) -> ToolOutput:
    """Write a text file (such as the consult note deliverable) to the output workspace.

    Only paths below /workspace/output/ are allowed; a relative path is taken below it.
    """
    path = ctx.workspace.write(args.file_path, args.content, args.mode)
    size = len(ctx.workspace.read(path) or "")
    verb = "Appended to" if args.mode == "append" else "Wrote"
    return ToolOutput(text=f"{verb} {path} ({size} characters in the file).", files=[path])


@tool(FinishArgs)
def finish(args: FinishArgs, ctx: ToolContext) -> ToolOutput:
    """End the task. Call this once all orders, messages and the note are done."""
    return ToolOutput(text="Task finished.", terminal=True)


COMMON_TOOLS = (write_file, finish)
