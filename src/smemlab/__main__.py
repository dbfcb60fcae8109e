from smemlab.cli import main

raise SystemExit(main())
