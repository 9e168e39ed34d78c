from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'prompt.j2@b4f384f15a04ae177c99f53766cf809a'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_files = resolve('files')
    l_0_examples = resolve('examples')
    l_0_task = resolve('task')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_3 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_4 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    pass
    yield 'You will change the files below. A tool applies your reply: each code block in it replaces exactly one named part of a file, so follow the reply format at the end.\n\n# Files\n\n'
    for l_1_file in (undefined(name='files') if l_0_files is missing else l_0_files):
        _loop_vars = {}
        pass
        yield '## '
        yield str(environment.getattr(l_1_file, 'path'))
        yield '\n'
        if environment.getattr(l_1_file, 'outline'):
            pass
        elif (environment.getattr(l_1_file, 'kind') == 'code'):
            pass
            yield 'Targets: '
            yield str((t_1(context.eval_ctx, environment.getattr(l_1_file, 'targets'), ', ') if environment.getattr(l_1_file, 'targets') else 'none (send the whole file to change it)'))
            yield '\n'
        elif (environment.getattr(l_1_file, 'kind') == 'data'):
            pass
            yield 'Paths: '
            yield str((t_1(context.eval_ctx, environment.getattr(l_1_file, 'targets'), ', ') if environment.getattr(l_1_file, 'targets') else 'none (send the whole file to change it)'))
            yield '\n'
        else:
            pass
            yield 'Targets: none (send the whole file to change it)\n'
        if environment.getattr(l_1_file, 'outline'):
            pass
            yield 'Outline only: this file ('
            yield str(environment.getattr(l_1_file, 'lines'))
            yield " lines) is not shown, only its definitions (its targets: kind, name, lines). Target them by name as usual; never send this file whole; ask for a definition's code if you need to see it.\n"
        yield str(environment.getattr(l_1_file, 'fence'))
        yield str(environment.getattr(l_1_file, 'info'))
        yield '\n'
        yield str(environment.getattr(l_1_file, 'text'))
        yield '\n'
        yield str(environment.getattr(l_1_file, 'fence'))
        yield '\n\n'
    l_1_file = missing
    yield "# Reply format\n\nPut each change in its own fenced code block whose first lines are comments:\n- `FILE: path`, as above, then one of:\n- `TARGET_NODE: kind name`, a name from the file's Targets (`method Cart.total`): the block replaces that whole definition.\n"
    if t_3(context.eval_ctx, t_4(context, (undefined(name='files') if l_0_files is missing else l_0_files), 'kind', 'equalto', 'data')):
        pass
        yield '- `TARGET_PATH: key.sub[0]` (JSON, YAML, TOML): the block is the new value there; a missing last key is added.\n'
    yield "- `INSERT_AFTER: kind name` or `INSERT_BEFORE`, `APPEND_TO: class Name` or `APPEND_TO: file`: the block holds only the new definitions.\n- `DELETE_NODE: kind name` and an empty block: removes it.\n- No target: the block is the whole file (a new file, or one without targets).\n\nRules: one target per block. Send whole definitions, signature to last line, never diffs, `... existing code ...` placeholders or parts. What a block leaves out stays as it is. Import lines at a block's top are merged into the file's imports. Decorators, `export` and the comment above a definition are kept unless restated.\n\n"
    if (undefined(name='examples') if l_0_examples is missing else l_0_examples):
        pass
        yield str(('Example' if (t_2((undefined(name='examples') if l_0_examples is missing else l_0_examples)) == 1) else 'Examples'))
        yield ' (restating current code; yours carries the change):\n\n'
        for l_1_example in (undefined(name='examples') if l_0_examples is missing else l_0_examples):
            _loop_vars = {}
            pass
            if (not environment.getattr(l_1_example, 'real')):
                pass
                yield '(An illustration: '
                yield str(environment.getattr(l_1_example, 'file'))
                yield ' is not one of your files.)\n'
            if (environment.getattr(l_1_example, 'directive') == 'INSERT_AFTER'):
                pass
                yield '(Adding: the block holds only the new definition; this one already follows '
                yield str(environment.getattr(l_1_example, 'target'))
                yield '.)\n'
            yield str(environment.getattr(l_1_example, 'block'))
            yield '\n\n'
        l_1_example = missing
    yield '# Task\n\n'
    if (undefined(name='task') if l_0_task is missing else l_0_task):
        pass
        yield str((undefined(name='task') if l_0_task is missing else l_0_task))
        yield '\n'

blocks = {}
debug_info = '14=39&15=43&16=45&18=47&19=50&20=52&21=55&25=60&26=63&28=65&29=68&30=70&39=74&48=78&49=80&51=82&52=85&53=88&55=90&56=93&58=95&65=99&66=101'