"""The ``physicianbench`` tool set: the reference benchmark's tools under their public names."""

from __future__ import annotations

from physbench_gym.tools.base import Toolset
from physbench_gym.tools.common import COMMON_TOOLS
from physbench_gym.tools.searches import SEARCH_TOOLS
from physbench_gym.tools.writes import WRITE_TOOLS


def physicianbench_toolset() -> Toolset:
    """Nine searches, four creates, ``write_file`` and ``finish``."""
    return Toolset("physicianbench", [*SEARCH_TOOLS, *WRITE_TOOLS, *COMMON_TOOLS])
