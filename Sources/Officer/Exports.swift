// An app imports `Officer` alone: the value types the front door's operations take and return (paths, entries,
// options, events, errors, facts) come from the layers below and are re-exported here.
@_exported import FileModel
@_exported import HTTP
@_exported import Journal
@_exported import Preview
@_exported import Transfer
