import EventLog

/// The rules of a user's registration and profile.
extension Decider {
    /// `user.registered`: a valid id not registered yet, a display name, a known time zone.
    mutating func registerUser(_ e: UserRegistered, user: String?) throws -> Decision {
        let user = user ?? ""
        try Rules.id(user, "user")
        guard try state.profile(user) == nil else {
            throw rule(.userAlreadyRegistered, "user \(user) is already registered")
        }
        try Rules.text(e.displayName, "displayName", required: true)
        let zone = try Rules.timeZone(e.timeZone)
        return Decision(events: [(.userRegistered(e), Rules.local(now, zone))])
    }

    /// `user.profile_updated`: a registered user; each field given is valid (name, time zone, step
    /// source, heart rates against the profile, workout sources named once each).
    mutating func updateProfile(_ e: UserProfileUpdated, user: String?) throws -> Decision {
        let user = user ?? ""
        let profile = try registered(user)
        if let name = e.displayName { try Rules.text(name, "displayName", required: true) }
        let zone = try Rules.timeZone(e.timeZone ?? profile.timeZone)
        if case .set(let source) = e.preferredStepSource { try Rules.stepSource(source, "preferredStepSource") }
        try Rules.heartRates(e, profile: profile)
        if let kinds = e.preferredWorkoutSources, Set(kinds).count != kinds.count {
            throw LogbookError.invalidArgument(name: "preferredWorkoutSources", reason: "names a source kind twice")
        }
        return Decision(events: [(.userProfileUpdated(e), Rules.local(now, zone))])
    }
}
