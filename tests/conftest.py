"""Test-wide settings: a small background population keeps the embedded EHR quick to build."""

import os

os.environ.setdefault("PHYSBENCH_BACKGROUND_PATIENTS", "20")
