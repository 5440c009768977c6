from gridproof.cli import main

raise SystemExit(main())
