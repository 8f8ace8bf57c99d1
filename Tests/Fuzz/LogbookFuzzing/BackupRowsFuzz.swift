public import FuzzSupport
import Logbook

/// The fuzz target of the rows files a backup of a log in PostgreSQL holds: a restore reads them
/// from a directory anyone could have changed (its manifest forged to match), so any bytes answer
/// rows or `BackupError.unreadableRows`, never a trap (the HostileInput article).
public enum BackupRowsFuzz {
    /// The first byte picks the file's kind (events, checkpoints, kept answers); the rest follows
    /// its magic line. Whatever decodes, encoded again, decodes to the same rows.
    public static let rows = FuzzTarget("FuzzBackupRows") { bytes throws(FuzzFailure) in
        guard let selector = bytes.first else { return }
        let kind = RowsFile.allCases[Int(selector) % RowsFile.allCases.count]
        let file = kind.magic + bytes.dropFirst()
        let rows: [[UInt8]]
        do {
            rows = try decode(kind, file)
        } catch let error as BackupError {
            guard case .unreadableRows = error else { throw FuzzFailure("a damaged rows file failed with \(error), not unreadableRows") }
            return
        } catch {
            throw FuzzFailure("a damaged rows file failed with \(type(of: error)) \(error)")
        }
        let again = kind.magic + rows.flatMap(RowsFileWriter.frame)
        do {
            try FuzzCheck.expect(try decode(kind, again) == rows, "rows encoded again decode to other rows")
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("rows encoded again do not decode: \(error)")
        }
    }

    /// Every row of `file`, each encoded again as the writer encodes it.
    static func decode(_ kind: RowsFile, _ file: [UInt8]) throws -> [[UInt8]] {
        var reader = try RowsFileReader(kind, bytes: file)
        var rows: [[UInt8]] = []
        while true {
            switch kind {
            case .events:
                guard let event = try reader.nextEvent() else { return rows }
                rows.append(RowsFileWriter.row(event))
            case .checkpoints:
                guard let checkpoint = try reader.nextCheckpoint() else { return rows }
                rows.append(RowsFileWriter.row(checkpoint))
            case .keptAnswers:
                guard let answer = try reader.nextAnswer() else { return rows }
                rows.append(RowsFileWriter.row(answer))
            case .userKeys:
                guard let key = try reader.nextUserKey() else { return rows }
                rows.append(RowsFileWriter.row(key))
            }
        }
    }
}
