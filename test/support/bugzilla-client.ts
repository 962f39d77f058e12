import bugzillaModule from 'bugzilla';

// The npm `bugzilla` package ships ES module syntax without "type": "module": TypeScript (nodenext) sees its class
// under `default`, while Jest hands it over directly. Take whichever is there.
type BugzillaClass = typeof bugzillaModule.default;

/** The npm `bugzilla` client class, for e2e flows that speak to Tracker the way real clients do. */
export const BugzillaAPI: BugzillaClass =
  (bugzillaModule as unknown as { default?: BugzillaClass }).default ?? (bugzillaModule as unknown as BugzillaClass);
