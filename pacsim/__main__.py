from pacsim.cli import entry

entry()
