import EventLog
import Hummingbird
import Logbook

/// `today`: the day a training answer is judged as of (missed or upcoming, the active target, the
/// prediction's window); default: today in the user's time zone by the server's clock.
enum TrainingToday {
    static let parameter = QueryParameter<CivilDate>.day(
        "today", "The day the answer is judged as of: missed or upcoming, the active target, the prediction (default: the user's today)")
}

/// The weekly training summary: a day of the week, and the day it is judged as of.
struct TrainingWeekQuery: RouteQuery {
    static var parameters: [DocumentedQueryParameter] { [WeekQuery.date.documented, TrainingToday.parameter.documented] }
    let date: CivilDate
    let today: CivilDate?
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        date = try WeekQuery.date.requiredValue(in: parameters)
        today = try TrainingToday.parameter.value(in: parameters)
    }
}

/// The plan from `from` to `to`, judged as of `today`.
struct TrainingPlanQuery: RouteQuery {
    static var parameters: [DocumentedQueryParameter] { [PeriodQuery.from.documented, PeriodQuery.to.documented, TrainingToday.parameter.documented] }
    let from: CivilDate
    let to: CivilDate
    let today: CivilDate?
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        from = try PeriodQuery.from.requiredValue(in: parameters)
        to = try PeriodQuery.to.requiredValue(in: parameters)
        today = try TrainingToday.parameter.value(in: parameters)
    }
}

/// The targets, judged as of `today`.
struct TrainingTargetsQuery: RouteQuery {
    static var parameters: [DocumentedQueryParameter] { [TrainingToday.parameter.documented] }
    let today: CivilDate?
    init(_ request: Request) throws { today = try TrainingToday.parameter.value(in: request) }
}
