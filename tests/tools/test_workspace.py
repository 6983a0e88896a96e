"""The in-memory workspace keeps every file below /workspace/output/ and within its limits."""

from __future__ import annotations

import pytest

from physbench_gym.tools import Workspace, get_toolset
from physbench_gym.tools.workspace import MAX_FILE_BYTES, MAX_FILES

ROOT = Workspace.ROOT


@pytest.mark.parametrize(("given", "stored"), [
    ("note.md", f"{ROOT}note.md"),
    (f"{ROOT}note.md", f"{ROOT}note.md"),
    (f"{ROOT}./a//b/note.md", f"{ROOT}a/b/note.md"),
    ("sub/dir/note.txt", f"{ROOT}sub/dir/note.txt"),
])
def test_paths_are_normalized_below_root(given, stored):
    workspace = Workspace()
    assert workspace.write(given, "x") == stored
    assert workspace.read(stored) == "x" and workspace.read(given) == "x"


@pytest.mark.parametrize("path", [
    "../escape.md", f"{ROOT}../escape.md", f"{ROOT}a/../../b.md", "/etc/passwd",
    "/workspace/outputs/x.md", "/workspace/output", ROOT, f"{ROOT}dir/", "..\\..\\x",
    f"{ROOT}a\\..\\..\\b", "note\x00.md", "note\n.md", "", "   ", "//workspace/output/x",
    "x" * 600,
])
def test_paths_outside_root_or_malformed_are_rejected(path):
    workspace = Workspace()
    with pytest.raises(ValueError):
        workspace.write(path, "x")
    assert workspace.files() == {}
    assert workspace.read(path) is None


def test_append_and_overwrite():
    workspace = Workspace()
    workspace.write("n.md", "a")
    workspace.write("n.md", "b", mode="append")
    assert workspace.read("n.md") == "ab"
    workspace.write("n.md", "c")
    assert workspace.files() == {f"{ROOT}n.md": "c"}
    with pytest.raises(ValueError, match="mode"):
        workspace.write("n.md", "d", mode="prepend")
    workspace.clear()
    assert workspace.files() == {}


def test_size_and_count_limits():
    workspace = Workspace()
    workspace.write("big.md", "x" * MAX_FILE_BYTES)
    with pytest.raises(ValueError, match="exceed"):
        workspace.write("big.md", "x", mode="append")
    with pytest.raises(ValueError, match="exceed"):
        workspace.write("wide.md", "é" * (MAX_FILE_BYTES // 2 + 1))
    for index in range(MAX_FILES - 1):
        workspace.write(f"f{index}.md", "x")
    with pytest.raises(ValueError, match="limited to"):
        workspace.write("one-too-many.md", "x")
    workspace.write("f0.md", "rewrite of an existing file is fine")


def test_write_file_tool(ctx):
    toolset = get_toolset()
    result = toolset.call("write_file", {"file_path": "/workspace/output/consult.md",
                                         "content": "Assessment: ..."}, ctx)
    assert result.ok and result.files == [f"{ROOT}consult.md"]
    assert ctx.workspace.read("consult.md") == "Assessment: ..."
    again = toolset.call("write_file", {"file_path": "consult.md", "content": " Plan.",
                                        "mode": "append"}, ctx)
    assert again.ok and ctx.workspace.read("consult.md") == "Assessment: ... Plan."


@pytest.mark.parametrize("path", ["../../etc/cron.d/x", "/tmp/x.md", "C:\\x.md"])
def test_write_file_tool_refuses_traversal(ctx, path):
    result = get_toolset().call("write_file", {"file_path": path, "content": "x"}, ctx)
    assert not result.ok and result.files == []
    assert ctx.workspace.files() == {}


def test_finish_is_terminal(ctx):
    result = get_toolset("fhir").call("finish", {"summary": "Recommended GLP-1 RA."}, ctx)
    assert result.ok and result.terminal
    assert get_toolset().call("finish", {}, ctx).terminal
