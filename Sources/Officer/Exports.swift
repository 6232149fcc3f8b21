// An app imports `Officer` alone. The value types the front door takes and returns come from the layers below
// and are re-exported here: locations, entries, errors and operations (FileModel), transfer options and results
// (Transfer), what a file is (Preview). Those layers' engines are `package`: the CLI, tests and bench reach them,
// an app never. HTTP and Journal are not re-exported at all.
@_exported import FileModel
@_exported import Preview
@_exported import Transfer
