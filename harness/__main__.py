"""`python -m harness`: the same as the `harness` command."""
from harness.entry import main

main()
