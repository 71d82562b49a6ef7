from sekigahara_tui.cli import main

raise SystemExit(main())
