// A bundle that can play any role, for LaunchKit's process tests and for trying `lockstep up` with a custom
// manifest. It starts like every simulated executable (identity, version check, stale gate), prints `ready`,
// then runs one command per stdin line (an empty line, the launcher's wake-up of a suspended extension, it answers
// `work returned after a wake-up`). Given arguments, it runs them as one command and exits.
//
//   echo TEXT          prints TEXT
//   env NAME           prints NAME=value from its environment
//   identity           prints its bundle id, build and groups root
//   pause              prints its process id, then waits for a signal
//   fds                prints the descriptors it inherited (`fds [0, 1, 2]` when nothing leaked)
//   alloc MB           allocates and touches MB of anonymous memory
//   hold-lock PATH     takes an exclusive flock on PATH (relative: inside its first App Group container)
//   release-lock       releases it
//   write-shared TEXT  writes TEXT to shared.txt in its first App Group container (checks the stale gate first)
//   data …             SwiftData: adds, lists, deletes trails in its store (DataCommands)
//   exit N             exits with status N
//   write-forever KEY  increments KEY in its first App Group's defaults suite, without end (for `kill --mid-write`)
//   save-place NAME [--fixed]     ArcMini #98's shape: sets currentPlace in the group's defaults (--fixed: and synchronizes)
//   show-place         prints `place NAME`, read through another UserDefaults(suiteName:) of the same process
//   publish-post TITLE [--fixed]  WordPress-iOS #2552's shape: sets latestPost, then posts com.example.posts-changed
//                                 (--fixed: synchronizes before posting)
//   show-posts         the widget's side: prints `widget shows TITLE` on each com.example.posts-changed
//   setup-db           home-assistant #4998's app: creates shared.sqlite (500 entities, schema 1) in its App Group
//   timeline [--fixed] its widget: reads shared.sqlite, prints `work returned with N entities`, then migrates it to schema 2 holding
//                      the write lock (--fixed: opens it read-only and leaves the migration to the app)
//   reload-widgets     asks every widget for a new timeline (WidgetCenter.shared.reloadAllTimelines())
//   write-note TEXT    swift-sharing #147's writer: replaces notes.txt in its App Group atomically
//   watch-notes [--fixed]  its watcher: prints `app sees notes: TEXT` on each change (--fixed: watches again after a replacement)
//   stored-place GROUP        a widget's view: prints `stored place NAME`, read through
//                             @AppStorage("currentPlace", store: UserDefaults(suiteName: GROUP)) (`none` when absent)
//   store-place GROUP NAME    writes NAME there through that wrapper's binding
//   folders            prints URL.documentsDirectory, .applicationSupportDirectory, .cachesDirectory, .temporaryDirectory
//
// `lockstep-probe __worker KIND ARGS…` instead runs one of the proof tests' workers (ProofWorkers), outside any bundle.
Probe.main()
