inquirer = None
