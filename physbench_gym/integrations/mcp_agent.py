"""``physbench eval --agent mcp-client:<command>``: an external MCP agent, scored with pass@k.

For every episode the harness runs ``<command>`` (split like a shell command line) with these
environment variables and waits for it to exit:

* ``PHYSBENCH_MCP_SERVER``: a JSON stdio server entry ``{"command", "args", "env"}`` (the
  shape of an ``mcpServers`` entry in MCP client configs) that starts ``physbench mcp`` for
  this episode;
* ``PHYSBENCH_MCP_CONFIG``: the path of a file ``{"mcpServers": {"physbench": <entry>}}``, for
  agents that read such a config (``claude --mcp-config "$PHYSBENCH_MCP_CONFIG"``);
* ``PHYSBENCH_TASK_ID`` and ``PHYSBENCH_SAMPLE``.

The agent starts that server once, reads the prompt ``brief``, calls the tools and ends with
``finish`` (leaving without it ends the episode the same way), closes the session so the
server can write the verdict, and exits. The server grades the episode and writes its record
in the eval format; the harness copies it into the run. An agent that never opens the
episode, or runs past ``AGENT_TIMEOUT`` seconds, leaves an infrastructure error, which is
retried when the run is resumed. The agent's output goes to ``mcp/<task>__<sample>/agent.log``.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from physbench_gym.errors import PhysBenchError

AGENT_TIMEOUT = float(os.environ.get("PHYSBENCH_MCP_AGENT_TIMEOUT", "3600"))


def agent_command(name: str) -> list[str]:
    """The command line of ``mcp-client:<command>``; PhysBenchError when there is none."""
    from physbench_gym.eval.factory import MCP_CLIENT

    try:
        command = shlex.split(name[len(MCP_CLIENT):])
    except ValueError as exc:
        raise PhysBenchError(f"cannot read the agent command of {name!r}: {exc}") from None
    if not command:
        raise PhysBenchError("--agent mcp-client: needs a command, e.g. "
                             "mcp-client:'python examples/mcp_oracle_agent.py'")
    return command


def server_entry(task_id: str, sample: int, settings: dict[str, Any],
                 out: Path) -> dict[str, Any]:
    """The stdio server entry that starts this episode's ``physbench mcp``."""
    args = ["-m", "physbench_gym.cli", "mcp", "--task", task_id, "--variant",
            str(settings["variant"]), "--seed", str(settings["seed"]), "--sample", str(sample),
            "--out", str(out.resolve())]
    if settings.get("max_steps"):
        args += ["--max-steps", str(settings["max_steps"])]
    return {"command": sys.executable, "args": args,
            "env": {"PHYSBENCH_BACKGROUND_PATIENTS": str(settings["background_patients"])}}


def run_mcp_client(task_id: str, sample: int,
                   settings: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run the external agent on one episode; return the episode's record and event log."""
    from physbench_gym.eval.runner import base_record, episode_seed
    from physbench_gym.eval.store import read_results, read_trajectory

    out = Path(settings["out_dir"]) / "mcp" / f"{task_id}__{sample}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    entry = server_entry(task_id, sample, settings, out)
    config = out / "mcp_config.json"
    config.write_text(json.dumps({"mcpServers": {"physbench": entry}}, indent=2),
                      encoding="utf-8")
    environment = {**os.environ, "PHYSBENCH_MCP_SERVER": json.dumps(entry),
                   "PHYSBENCH_MCP_CONFIG": str(config.resolve()),
                   "PHYSBENCH_TASK_ID": task_id, "PHYSBENCH_SAMPLE": str(sample)}
    started = time.perf_counter()
    outcome = _run(agent_command(settings["agent"]), environment, out / "agent.log")
    record = read_results(out).get((task_id, sample))
    if record is None:
        seed = episode_seed(settings["seed"], task_id, sample)
        failed = base_record(task_id, sample, seed, settings)
        failed.update(status="infra_error", termination="infra_error",
                      error=f"the MCP agent ({outcome}) ended no episode; see {out}/agent.log",
                      wall_time=time.perf_counter() - started, finished_at=time.time())
        return failed, []
    events = read_trajectory(out, record)
    record.update(agent=settings["agent"], model=settings.get("model"),
                  variant=settings["variant"], agent_exit=outcome)
    record.pop("trajectory", None)
    return record, events


def _run(command: list[str], environment: dict[str, str], log_path: Path) -> str:
    with log_path.open("wb") as log:
        try:
            process = subprocess.Popen(command, env=environment, stdin=subprocess.DEVNULL,
                                       stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        except OSError as exc:
            return f"could not start: {exc}"
        try:
            return f"exit code {process.wait(timeout=AGENT_TIMEOUT)}"
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
            return f"killed after {AGENT_TIMEOUT:.0f} s"
