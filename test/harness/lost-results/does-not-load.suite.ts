/** A suite file that fails while loading, before it declares its checks (DOES_NOT_LOAD). */
throw new Error('this suite file does not load');
