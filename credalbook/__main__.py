from credalbook.cli import main

raise SystemExit(main())
