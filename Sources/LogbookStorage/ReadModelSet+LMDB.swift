package import LMDB
package import LogbookDomain

/// The read models folded and read in LMDB transactions: the embedded composition hands its
/// transactions here, and the domain sees them only as ``TableReader``/``TableWriter``.
extension ReadModelSet {
    /// Folds `fold` into the active read models, reading their records in `transaction`.
    package mutating func apply(_ fold: FoldEvent, _ transaction: ReadTransaction) throws {
        try apply(fold, LMDBTableReader(transaction))
    }

    /// Writes the active read models' changed records in `transaction`.
    package mutating func flush(_ transaction: WriteTransaction) throws {
        try flush(LMDBTableWriter(transaction))
    }
}

extension ReadModelState {
    /// The read models as the rules read them, in `transaction`.
    package init(projections: ReadModelSet, transaction: ReadTransaction) {
        self.init(projections: projections, txn: LMDBTableReader(transaction))
    }
}
