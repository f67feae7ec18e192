"""``python -m switchboard`` runs the launcher."""

import sys

from switchboard.cli import main

sys.exit(main())
