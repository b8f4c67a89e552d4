"""`python -m core` is the `knowloop` command."""

import sys

from core.cli import main

sys.exit(main())
