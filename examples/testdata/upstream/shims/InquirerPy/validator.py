class EmptyInputValidator:
    pass
