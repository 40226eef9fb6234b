#!/usr/bin/env python3
"""Run the tjsim CLI from a checkout: `python cli.py rules`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tianjiu_sim.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
