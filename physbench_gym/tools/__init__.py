"""The agent's tool sets: argument models, JSON schemas, execution against a FHIR client."""

from physbench_gym.tools.base import (
    Tool,
    ToolContext,
    ToolError,
    ToolOutput,
    ToolResult,
    Toolset,
    get_toolset,
)
from physbench_gym.tools.workspace import Workspace

TOOLSETS = ("physicianbench", "fhir")

__all__ = ["TOOLSETS", "Tool", "ToolContext", "ToolError", "ToolOutput", "ToolResult", "Toolset",
           "Workspace", "get_toolset"]
