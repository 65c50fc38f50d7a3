"""`python -m cellgrad_charlm` runs the example."""

from cellgrad_charlm.cli import main

raise SystemExit(main())
