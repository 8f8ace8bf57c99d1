/// Every read model of Logbook and every cached query over them: the one place a new read model
/// is added (see the DocC article "Adding a read model").
///
/// The order of ``models`` is the order read models fold in, are digested and are listed.
package enum ReadModelRegistry {
    /// The read models.
    static let models: [any ReadModel.Type] = [
        ProfilesReadModel.self,
        StatsReadModel.self,
        GoalsReadModel.self,
        PlacesReadModel.self,
        ActivitiesReadModel.self,
        TimelineReadModel.self,
        CollectiblesReadModel.self,
        RecordsReadModel.self,
        TargetsReadModel.self,
        PlanReadModel.self,
        IntensityReadModel.self,
        RatingsReadModel.self,
        AnswerVersionsReadModel.self,
    ]

    /// The cached queries (each declares the read models it reads).
    static let cachedQueries: [CachedQuery] = [
        .stats, .goals, .places, .activities, .timeline, .collectibles, .records, .trainingTargets, .trainingPlan, .trainingWeek,
        .trainingLoad, .ratedPlaces,
    ]

    /// The read models' names, in order.
    static let kinds: [ReadModelKind] = models.map { $0.kind }

    /// The place of `kind` in ``models``.
    static func index(of kind: ReadModelKind) -> Int {
        guard let index = kinds.firstIndex(of: kind) else { preconditionFailure("no read model \(kind.rawValue) in the registry") }
        return index
    }

    /// The read model named `kind`.
    static func model(_ kind: ReadModelKind) -> any ReadModel.Type { models[index(of: kind)] }
}
