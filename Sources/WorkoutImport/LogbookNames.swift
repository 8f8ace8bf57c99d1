public import Logbook

/// Logbook's source kinds, named apart from WorkoutFiles' vocabulary of the same name (the module
/// `Logbook` has a class `Logbook`, so `Logbook.SourceKind` does not name the enum).
public typealias WorkoutSourceKind = SourceKind
