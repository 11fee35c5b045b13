import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('v1beta1-crd');
