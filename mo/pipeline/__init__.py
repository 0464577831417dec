"""Drivers of the ``mo`` commands. Each command module has HELP, add_arguments(parser), run(args)."""
import importlib

#: command name -> module implementing it (imported only when the command line is built)
_COMMANDS = {
    'convert': 'mo.pipeline.convert',
    'transform': 'mo.pipeline.transform',
    'summarize': 'mo.pipeline.summarize',
}


def registry_of_commands() -> dict:
    """The command modules that exist in this installation, by command name."""
    commands = {}
    for name, module_name in _COMMANDS.items():
        try:
            commands[name] = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
    return commands
