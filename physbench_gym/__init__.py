"""physbench-gym: PhysicianBench-style clinical tasks as Gymnasium environments."""

__version__ = "0.1.0"
