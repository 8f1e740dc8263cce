"""`python -m sekigahara_pbem` runs the `seki` command."""

from .cli import main

if __name__ == "__main__":  # not when a spawned process imports it (packet_checks.py)
    main()
