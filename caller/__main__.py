from caller.cli import main

raise SystemExit(main())
