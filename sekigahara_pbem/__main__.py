"""`python -m sekigahara_pbem` runs the `seki` command."""

from .cli import main

main()
