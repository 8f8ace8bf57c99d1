/// The names the read models' public types had before "read model" became the one word for them
/// in Logbook's types and files (a projection is the fold, a read model what it builds and what is
/// queried, rebuilt and verified). Kept so that code embedding Logbook still compiles, with a
/// deprecation warning that names the new type.
@available(*, deprecated, renamed: "ReadModelKind")
public typealias ProjectionKind = ReadModelKind

@available(*, deprecated, renamed: "ReadModelDigest")
public typealias ProjectionDigest = ReadModelDigest

@available(*, deprecated, renamed: "ReadModelStatus")
public typealias ProjectionStatus = ReadModelStatus
