"""`python -m partita.cli`: the `partita` command."""

import sys

from partita.cli import main

sys.exit(main())
