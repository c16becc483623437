package pathrule

// Platform is the relation "auto" means before a probe refines it: on macOS
// the default APFS volume is case-insensitive and normalization-insensitive.
func Platform() Equality { return Darwin }
