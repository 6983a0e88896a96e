"""physbench-gym: PhysicianBench-style clinical tasks as Gymnasium environments.

Importing the package registers ``PhysicianBench-v0``, its variants from ``envs/`` and one
``PhysicianBench/<task_id>-v0`` id per task.
"""

from physbench_gym.registration import register_all
from physbench_gym.vector import make_vec

__version__ = "0.1.0"

register_all()

__all__ = ["__version__", "make_vec"]
