#if FUZZING
    // The fuzzing build has no version stamp (see Package.swift): the CLI's version is VERSION's, unknown there.
    package enum BuildVersion {
        /// No stamp in a fuzzing build.
        package static let version = "fuzzing"
        /// No commit either.
        package static let commit: String? = nil
    }
#endif
