"""The engine's infrastructure, apart from the rulebook modules beside it in
`rules/`: reading component files, position files, records and saved states
(all read as untrusted text), and the uniform self-play used by tests and
benchmarks. Nothing here decides a rule; every module here calls the rulebook
modules, never the other way round (except the component loader, which
`rules.components.default_components` calls once to build the components)."""
