package vault

// buildVersion is set by the linker.
var buildVersion = "dev"
