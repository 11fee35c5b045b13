import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('preserve-unknown-fields');
