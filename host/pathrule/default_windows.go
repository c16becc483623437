package pathrule

// Platform is the relation "auto" means before a probe refines it: NTFS as
// Windows uses it, case-insensitive by simple upper-casing.
func Platform() Equality { return Windows }
