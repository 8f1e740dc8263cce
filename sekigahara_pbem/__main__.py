"""`python -m sekigahara_pbem` runs the `seki` command.

`-m` puts the current directory first on the import path, and seki is often run inside a
directory it reads (a received archive, a mail folder), whose files are hostile: that
entry goes before anything else is imported (a spawned process, read_ahead.py, starts
with a path without it and does not run this)."""

import sys

if __name__ == "__main__":
    if not sys.flags.safe_path:
        del sys.path[0]
    from sekigahara_pbem.cli import main

    main()
