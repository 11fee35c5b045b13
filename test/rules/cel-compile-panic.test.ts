import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('cel-compile-panic');
