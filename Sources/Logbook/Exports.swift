/// `import Logbook` brings the domain with it (events, commands, read models' values, errors):
/// a host embedding Logbook imports one module, as before the domain had a module of its own.
@_exported public import LogbookDomain
