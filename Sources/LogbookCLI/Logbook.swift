import ArgumentParser

/// The `logbook` command: Logbook's event log from the command line.
@main
struct LogbookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook",
        abstract: "An event-sourced backend for fitness and places apps, on an append-only LMDB log.",
        subcommands: [
            DemoCommand.self, ServeCommand.self, ImportCommand.self, ImportFileCommand.self, ExportCommand.self, RebuildCommand.self, ReplayCommand.self,
            VerifyCommand.self, TimelineCommand.self, StatsCommand.self, GoalsCommand.self, PlacesCommand.self, InspectCommand.self,
            TokenCommand.self, OpenAPICommand.self, CopyCommand.self, BackupCommand.self, RestoreCommand.self, EraseCommand.self, EncryptExistingCommand.self,
            TrainingCommand.self, CatalogCommand.self, SummaryCommand.self, ConsoleURLCommand.self,
        ]
    )
}
