"""`python -m cellgrad_digits` runs the example."""

from cellgrad_digits.cli import main

raise SystemExit(main())
