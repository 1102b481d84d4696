//! git's built-in diff drivers: the function-name patterns that `diff=<name>` selects.
//!
//! The patterns are data reproduced for compatibility from git 2.47's `userdiff.c` (the
//! `funcname` part of each `PATTERNS`/`IPATTERN` entry; git is GPL-2.0, and no code of it is
//! used here), so that hunk headers read as `git diff` prints them. Each is git's extended
//! regular expression: one rule a line, a leading `!` rejects the lines it matches. `icase`
//! marks the drivers git compiles with `REG_ICASE`.

/// One built-in driver.
#[derive(Debug)]
pub(crate) struct Builtin {
    /// The name `diff=<name>` gives.
    pub(crate) name: &'static str,
    /// Matched without regard to case.
    pub(crate) icase: bool,
    /// The rules, one a line.
    pub(crate) pattern: &'static str,
}

/// The built-in driver of that name.
pub(crate) fn find(name: &[u8]) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name.as_bytes() == name)
}

/// Every built-in driver with a pattern, by name (git 2.47's list; `default` has none).
pub(crate) const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "ada",
        icase: true,
        pattern: concat!(
            "!^(.*[ \t])?(is[ \t]+new|renames|is[ \t]+separate)([ \t].*)?$\n",
            "!^[ \t]*with[ \t].*$\n",
            "^[ \t]*((procedure|function)[ \t]+.*)$\n",
            "^[ \t]*((package|protected|task)[ \t]+.*)$",
        ),
    },
    Builtin {
        name: "bash",
        icase: false,
        pattern: "^[ \t]*(([a-zA-Z_][a-zA-Z0-9_]*[ \t]*\\([ \t]*\\))|(function[ \t]+[a-zA-Z_][a-zA-Z0-9_]*(([ \t]*\\([ \t]*\\))|([ \t]+)))[ \t]*(\\{|\\(\\(?|\\[\\[))",
    },
    Builtin {
        name: "bibtex",
        icase: false,
        pattern: "(@[a-zA-Z]{1,}[ \t]*\\{{0,1}[ \t]*[^ \t\"@',\\#}{~%]*).*$",
    },
    Builtin {
        name: "cpp",
        icase: false,
        pattern: concat!(
            "!^[ \t]*[A-Za-z_][A-Za-z_0-9]*:[[:space:]]*($|/[/*])\n",
            "^((::[[:space:]]*)?[A-Za-z_].*)$",
        ),
    },
    Builtin {
        name: "csharp",
        icase: false,
        pattern: concat!(
            "!(^|[ \t]+)(do|while|for|foreach|if|else|new|default|return|switch|case|throw|catch|using|lock|fixed)([ \t(]+|$)\n",
            "^[ \t]*(([][[:alnum:]@_.](<[][[:alnum:]@_, \t<>]+>)?)+([ \t]+([][[:alnum:]@_.](<[][[:alnum:]@_, \t<>]+>)?)+)+[ \t]*\\([^;]*)$\n",
            "^[ \t]*(([][[:alnum:]@_.](<[][[:alnum:]@_, \t<>]+>)?)+([ \t]+([][[:alnum:]@_.](<[][[:alnum:]@_, \t<>]+>)?)+)+[^;=:,()]*)$\n",
            "^[ \t]*(((static|public|internal|private|protected|new|unsafe|sealed|abstract|partial)[ \t]+)*(class|enum|interface|struct|record)[ \t]+.*)$\n",
            "^[ \t]*(namespace[ \t]+.*)$",
        ),
    },
    Builtin {
        name: "css",
        icase: true,
        pattern: concat!("![:;][[:space:]]*$\n", "^[:[@.#]?[_a-z0-9].*$",),
    },
    Builtin {
        name: "dts",
        icase: false,
        pattern: concat!("!;\n", "!=\n", "^[ \t]*((/[ \t]*\\{|&?[a-zA-Z_]).*)",),
    },
    Builtin {
        name: "elixir",
        icase: false,
        pattern: "^[ \t]*((def(macro|module|impl|protocol|p)?|test)[ \t].*)$",
    },
    Builtin {
        name: "fortran",
        icase: true,
        pattern: concat!(
            "!^([C*]|[ \t]*!)\n",
            "!^[ \t]*MODULE[ \t]+PROCEDURE[ \t]\n",
            "^[ \t]*((END[ \t]+)?(PROGRAM|MODULE|BLOCK[ \t]+DATA|([^!'\" \t]+[ \t]+)*(SUBROUTINE|FUNCTION))[ \t]+[A-Z].*)$",
        ),
    },
    Builtin {
        name: "fountain",
        icase: true,
        pattern: "^((\\.[^.]|(int|ext|est|int\\.?/ext|i/e)[. ]).*)$",
    },
    Builtin {
        name: "golang",
        icase: false,
        pattern: concat!(
            "^[ \t]*(func[ \t]*.*(\\{[ \t]*)?)\n",
            "^[ \t]*(type[ \t].*(struct|interface)[ \t]*(\\{[ \t]*)?)",
        ),
    },
    Builtin {
        name: "html",
        icase: false,
        pattern: "^[ \t]*(<[Hh][1-6]([ \t].*)?>.*)$",
    },
    Builtin {
        name: "java",
        icase: false,
        pattern: concat!(
            "!^[ \t]*(catch|do|for|if|instanceof|new|return|switch|throw|while)\n",
            "^[ \t]*(([a-z-]+[ \t]+)*(class|enum|interface|record)[ \t]+.*)$\n",
            "^[ \t]*(([A-Za-z_<>&][][?&<>.,A-Za-z_0-9]*[ \t]+)+[A-Za-z_][A-Za-z_0-9]*[ \t]*\\([^;]*)$",
        ),
    },
    Builtin {
        name: "kotlin",
        icase: false,
        pattern: "^[ \t]*(([a-z]+[ \t]+)*(fun|class|interface)[ \t]+.*)$",
    },
    Builtin {
        name: "markdown",
        icase: false,
        pattern: "^ {0,3}#{1,6}[ \t].*",
    },
    Builtin {
        name: "matlab",
        icase: false,
        pattern: "^[[:space:]]*((classdef|function)[[:space:]].*)$|^(%%%?|##)[[:space:]].*$",
    },
    Builtin {
        name: "objc",
        icase: false,
        pattern: concat!(
            "!^[ \t]*(do|for|if|else|return|switch|while)\n",
            "^[ \t]*([-+][ \t]*\\([ \t]*[A-Za-z_][A-Za-z_0-9* \t]*\\)[ \t]*[A-Za-z_].*)$\n",
            "^[ \t]*(([A-Za-z_][A-Za-z_0-9]*[ \t]+)+[A-Za-z_][A-Za-z_0-9]*[ \t]*\\([^;]*)$\n",
            "^(@(implementation|interface|protocol)[ \t].*)$",
        ),
    },
    Builtin {
        name: "pascal",
        icase: false,
        pattern: concat!(
            "^(((class[ \t]+)?(procedure|function)|constructor|destructor|interface|implementation|initialization|finalization)[ \t]*.*)$\n",
            "^(.*=[ \t]*(class|record).*)$",
        ),
    },
    Builtin {
        name: "perl",
        icase: false,
        pattern: concat!(
            "^package .*\n",
            "^sub [[:alnum:]_':]+[ \t]*(\\([^)]*\\)[ \t]*)?(:[^;#]*)?(\\{[ \t]*)?(#.*)?$\n",
            "^(BEGIN|END|INIT|CHECK|UNITCHECK|AUTOLOAD|DESTROY)[ \t]*(\\{[ \t]*)?(#.*)?$\n",
            "^=head[0-9] .*",
        ),
    },
    Builtin {
        name: "php",
        icase: false,
        pattern: concat!(
            "^[\t ]*(((public|protected|private|static|abstract|final)[\t ]+)*function.*)$\n",
            "^[\t ]*((((final|abstract)[\t ]+)?class|enum|interface|trait).*)$",
        ),
    },
    Builtin {
        name: "python",
        icase: false,
        pattern: "^[ \t]*((class|(async[ \t]+)?def)[ \t].*)$",
    },
    Builtin {
        name: "ruby",
        icase: false,
        pattern: "^[ \t]*((class|module|def)[ \t].*)$",
    },
    Builtin {
        name: "rust",
        icase: false,
        pattern: "^[\t ]*((pub(\\([^\\)]+\\))?[\t ]+)?((async|const|unsafe|extern([\t ]+\"[^\"]+\"))[\t ]+)?(struct|enum|union|mod|trait|fn|impl|macro_rules!)[< \t]+[^;]*)$",
    },
    Builtin {
        name: "scheme",
        icase: false,
        pattern: "^[\t ]*(\\(((define|def(struct|syntax|class|method|rules|record|proto|alias)?)[-*/ \t]|(library|module|struct|class)[*+ \t]).*)$",
    },
    Builtin {
        name: "tex",
        icase: false,
        pattern: "^(\\\\((sub)*section|chapter|part)\\*{0,1}\\{.*)$",
    },
];
