// Package extension is what the host knows about an extension before it
// runs one: its manifest (lola-extension.yaml, decoded strictly), its
// artifacts per tier, the tier it will run in, its granted capability set
// and its declared path grant, and where it came from (built into the lola
// binary or installed beside it (RegisterBuiltin, RegisterBuiltinDir),
// installed under $LOLA_HOME/extensions/<name>/, or a directory
// named on the command line). It also reports the tier-1 confinement
// layers the current kernel provides.
//
// Guarantees:
//   - A manifest is refused whole when it holds an unknown key (named in the
//     error), a duplicate key, a second YAML document, a name outside
//     ^[a-z][a-z0-9-]{0,62}$, no version, a kind outside target|source|hook,
//     no artifact, an artifact path that is absolute, holds "..", or is not a
//     portable root-relative path, a tier-1 artifact for a hook, an unknown
//     capability (capability.unknown, never trimmed), an invalid path grant,
//     or a managed file (managed:) that is not a root-relative file path
//     covered by the declared path grant.
//   - CurrentFiles reads the managed files for Request.Current beneath a
//     root through host/fsroot: a symlink anywhere on the way is
//     path.symlink and never followed, anything but a regular file is
//     refused, each file is bounded (MaxCurrentFileBytes), an absent one
//     is omitted.
//   - An artifact is resolved beneath its extension directory through
//     os.Root: a symlink that leaves the directory refuses the extension, as
//     does an artifact that is not a regular file.
//   - Discovery never skips silently: a broken manifest, a directory whose
//     name differs from its manifest's name, or a name clash is a Problem in
//     the Catalog. A home extension can never shadow a built-in one.
//
// Typical use, by the commands that run extensions:
//
//	home, _ := config.Home()
//	cat, err := extension.Discover(home)       // built-ins + $LOLA_HOME/extensions
//	ext, err := cat.Lookup("claude-code")      // or extension.Load(dir)
//	art, _ := ext.Artifact(ext.Tier())         // tier 1 when both are built
//	caps := ext.Capabilities()                 // capability.Set, for --caps and the audit record
//	grant := capability.GrantPaths(ext.Paths(), cfg, ext.Name(), eq)
//	req.Current, err = ext.CurrentFiles(root)  // the manifest's managed: files, for a target
//
// Non-guarantees: loading reads the manifest and stats the artifacts; it
// does not read or verify artifact bytes (the shim caps and reads a module,
// host/child runs a native one), and a tier-2 artifact is trusted code.
package extension
