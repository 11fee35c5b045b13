import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('cel-not-evaluated');
