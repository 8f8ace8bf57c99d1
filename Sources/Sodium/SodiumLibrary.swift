import CSodium

/// libsodium's one-time set-up. `sodium_init` picks the fastest implementations for this CPU and
/// seeds the random generator; it must run before anything else, once. Swift runs a global's
/// initializer exactly once, however many threads ask at the same time, so every entry point
/// that needs it reads ``ready`` (a key is made before anything is sealed or opened with it, so
/// ``SymmetricKey`` is that entry point).
enum SodiumLibrary {
    /// The result of the one `sodium_init` call: 0, set up now; 1, already set up (by another
    /// library in this process); −1, libsodium cannot be used.
    private static let initialization: Result<Void, SodiumError> = {
        let code = sodium_init()
        return code >= 0 ? .success(()) : .failure(SodiumError(.unavailable, "sodium_init returned \(code)"))
    }()

    /// Throws unless libsodium is set up (setting it up the first time).
    static func ready() throws(SodiumError) {
        try initialization.get()
    }
}
