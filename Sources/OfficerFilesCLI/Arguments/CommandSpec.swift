/// A declared option: its spellings, whether it takes a value, and its help line.
package struct OptionSpec: Sendable {
    /// How the option consumes arguments.
    package enum Kind: Sendable, Equatable {
        /// Present or absent.
        case flag
        /// Takes one value (`--out FILE`, `--out=FILE`); given twice, the last wins.
        case value(placeholder: String)
        /// Takes one value each time and may repeat (`--exclude A --exclude B`).
        case repeated(placeholder: String)
        /// A flag that may carry a value, written only as `--name=VALUE` (`--resize`, `--resize=1600`).
        case optionalValue(placeholder: String)
    }

    /// Spellings, long first: `["--force", "-f"]`.
    package var names: [String]
    /// Flag, value or repeated value.
    package var kind: Kind
    /// One line of help.
    package var help: String

    /// Creates an option.
    package init(_ names: [String], _ kind: Kind = .flag, help: String) {
        self.names = names
        self.kind = kind
        self.help = help
    }

    /// The key results are stored under: the first name without its dashes.
    package var key: String { String(names[0].drop { $0 == "-" }) }
}

/// A declared positional argument.
package struct PositionalSpec: Sendable {
    /// Name shown in usage, e.g. `PATH`.
    package var name: String
    /// One line of help.
    package var help: String
    /// May be left out.
    package var isOptional: Bool
    /// Takes all remaining arguments.
    package var isVariadic: Bool

    /// Creates a positional argument.
    package init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
        self.name = name
        self.help = help
        isOptional = optional
        isVariadic = variadic
    }
}

/// A command or subcommand: its name, help, options, positionals and children.
package struct CommandSpec: Sendable {
    /// The word that selects it.
    package var name: String
    /// One line shown in command lists.
    package var summary: String
    /// Longer help shown by `help COMMAND`.
    package var discussion: String
    /// Options of this command (global options are added by the parser).
    package var options: [OptionSpec]
    /// Positional arguments, in order.
    package var positionals: [PositionalSpec]
    /// Subcommands; a command with subcommands takes no positionals of its own.
    package var subcommands: [CommandSpec]
    /// The subcommand run when none is named; nil requires one.
    package var defaultSubcommand: String?
    /// Usage lines after the command's name where its positionals alone would mislead (`get SRC [DEST]` and
    /// `get --zip SRC... DEST`); nil: made from the positionals.
    package var usages: [String]?

    /// Creates a command.
    package init(
        _ name: String, summary: String, discussion: String = "", options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [], subcommands: [CommandSpec] = [], defaultSubcommand: String? = nil,
        usages: [String]? = nil
    ) {
        self.defaultSubcommand = defaultSubcommand
        self.usages = usages
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
    }

    /// The direct subcommand called `name`.
    package func subcommand(_ name: String) -> CommandSpec? { subcommands.first { $0.name == name } }
}
