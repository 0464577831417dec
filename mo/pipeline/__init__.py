"""Drivers of the ``mo`` commands. Each command module has HELP, add_arguments(parser), run(args)."""
import importlib

#: command name -> module implementing it (imported only when the command line is built)
_COMMANDS = {
    'convert': 'mo.pipeline.convert',
    'transform': 'mo.pipeline.transform',
    'summarize': 'mo.pipeline.summarize',
    'ops': 'mo.pipeline.ops_listing',
}


def command_names() -> list:
    """The names of the commands (without importing their modules)."""
    return list(_COMMANDS)


def registry_of_commands(only=None) -> dict:
    """The command modules that exist in this installation, by command name (``only``: just those)."""
    commands = {}
    for name, module_name in _COMMANDS.items():
        if only is not None and name not in only:
            continue
        try:
            commands[name] = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
    return commands
