"""The episode's in-memory file system for deliverables; nothing here touches the host disk."""

from __future__ import annotations

import posixpath
from typing import Literal

MAX_FILE_BYTES = 1_000_000
MAX_FILES = 64
MAX_PATH_CHARS = 512


class Workspace:
    """Files an agent writes during one episode, all kept below ``ROOT``.

    Paths are normalized: a relative path is taken below ``ROOT``; anything that would leave
    ``ROOT`` (``..`` parts, other absolute paths, backslashes, control characters) is refused.
    """

    ROOT = "/workspace/output/"

    def __init__(self) -> None:
        self._files: dict[str, str] = {}

    def write(self, path: str, content: str,
              mode: Literal["overwrite", "append"] = "overwrite") -> str:
        """Write or append ``content`` to a file and return its normalized path.

        Raises:
            ValueError: the path is outside ``ROOT`` or malformed, the mode is unknown, the file
                would exceed 1 MB, or the workspace already holds its maximum number of files.
        """
        if mode not in ("overwrite", "append"):
            raise ValueError(f"mode must be 'overwrite' or 'append', not {str(mode)[:40]!r}")
        if not isinstance(content, str):
            raise ValueError("file content must be text")
        target = self.normalize(path)
        new = self._files.get(target, "") + content if mode == "append" else content
        if len(new.encode("utf-8", errors="surrogatepass")) > MAX_FILE_BYTES:
            raise ValueError(f"{target} would exceed the limit of {MAX_FILE_BYTES} bytes per file")
        if target not in self._files and len(self._files) >= MAX_FILES:
            raise ValueError(f"the workspace is limited to {MAX_FILES} files")
        self._files[target] = new
        return target

    def read(self, path: str) -> str | None:
        """Return a file's content, or None when it does not exist (or the path is invalid)."""
        try:
            return self._files.get(self.normalize(path))
        except ValueError:
            return None

    def files(self) -> dict[str, str]:
        """A copy of every file, by normalized path."""
        return dict(self._files)

    def clear(self) -> None:
        """Remove every file (at the start of an episode)."""
        self._files.clear()

    @classmethod
    def normalize(cls, path: str) -> str:
        """Return the canonical absolute path below ``ROOT`` or raise ValueError."""
        if not isinstance(path, str) or not path.strip():
            raise ValueError("a file path is required")
        if len(path) > MAX_PATH_CHARS:
            raise ValueError(f"the file path is longer than {MAX_PATH_CHARS} characters")
        if "\\" in path or any(ord(char) < 32 or ord(char) == 127 for char in path):
            raise ValueError("the file path contains a backslash or a control character")
        if path.endswith("/"):
            raise ValueError(f"{path[:100]!r} names a directory, not a file")
        if ".." in path.split("/"):
            raise ValueError("'..' is not allowed in a file path")
        full = path if path.startswith("/") else cls.ROOT + path
        normalized = posixpath.normpath(full)
        if not normalized.startswith(cls.ROOT) or normalized == cls.ROOT.rstrip("/"):
            raise ValueError(f"files can only be written below {cls.ROOT} (got {path[:100]!r})")
        return normalized
